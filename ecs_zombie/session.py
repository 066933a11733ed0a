"""What the CLI does, without the CLI: run, resume, replay, inspect and validate, as functions.

The CLI only parses arguments and prints; everything here returns data, so tests and scripts can
call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs_zombie import snapshot
from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.data import YMap, display_path, load_yaml
from ecs_zombie.decisions import PolicyTable
from ecs_zombie.errors import DataError, GameError
from ecs_zombie.game import Game, new_game
from ecs_zombie.prefabs import load_prefabs
from ecs_zombie.registry import TABLES
from ecs_zombie.replay import Recorder, load_replay
from ecs_zombie.ruleset import RULESETS_DIR, load_ruleset
from ecs_zombie.scenario import load_scenario

SAVES_DIR = Path("saves")


def output_path(path: str) -> Path:
    """A bare file name goes into the default `saves/` folder; anything with a folder stays as given."""
    p = Path(path)
    return SAVES_DIR / p if p.parent == Path(".") and not path.startswith("./") else p


def parse_params(items: list[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise GameError(f"--param takes KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


@dataclass
class RunResult:
    game: Game
    per_tick: list[dict[str, Any]] = field(default_factory=list)
    saved: Path | None = None
    recorded: Path | None = None

    def summary(self) -> dict[str, Any]:
        out = self.game.summary()
        out["players"] = self.game.players
        out["finished"] = self.game.over
        out["per_turn"] = self.per_tick
        return out


def _tick_row(game: Game) -> dict[str, Any]:
    return {"turn": game.tick, **game.metrics()}


def play(game: Game, stop_after: int | None, save: str | None, record: str | None,
         policy: str | None = None) -> RunResult:
    result = RunResult(game)
    recorder = Recorder(game) if record else None
    policies = PolicyTable(policy or game.policy_spec)
    game.play(policies, stop_after=stop_after, on_tick=lambda g: result.per_tick.append(_tick_row(g)))
    if save:
        result.saved = output_path(save)
        snapshot.save(game, result.saved)
    if recorder is not None and record:
        result.recorded = output_path(record)
        snapshot.write_atomic(result.recorded, recorder.to_bytes(game))
    return result


def run(target: str, seed: int, policy: str, players: int | None, dice: list[int], cards: list[str],
        params: dict[str, str], stop_after: int | None, save: str | None, record: str | None) -> RunResult:
    if stop_after is not None and stop_after < 0:
        raise GameError(f"--stop-after takes a tick number of 0 or more, got {stop_after}")
    game = new_game(target, seed, players=players, params=params, dice=dice, cards=cards, policy=policy)
    return play(game, stop_after, save, record)


def resume(path: str, save: str | None, record: str | None) -> RunResult:
    game = snapshot.load(Path(path))
    if game.over:
        raise GameError(f"{path}: this game is already over ({game.outcome})")
    return play(game, None, save, record)


def inspect_state(path: str, tick: int | None) -> dict[str, Any]:
    """The entities and components of a save, or of a replay at a tick (default: its last)."""
    import msgpack

    p = Path(path)
    raw = snapshot.read_file(p)
    try:
        body = snapshot.unwrap(raw, "snapshot", path)
    except GameError as exc:
        if "not a snapshot" not in str(exc):
            raise
        replay = load_replay(p)
        ticks = [0] + [t[0] for t in replay.ticks]
        want = ticks[-1] if tick is None else tick
        if want not in ticks:
            raise GameError(f"{path}: no tick {want} in this replay (ticks 0..{ticks[-1]})") from None
        body = replay.initial if want == 0 else msgpack.unpackb(
            next(t[3] for t in replay.ticks if t[0] == want), raw=False, strict_map_key=True)
    else:
        if tick is not None and tick != body.get("tick"):
            raise GameError(f"{path}: a save holds tick {body.get('tick')} only")
    try:
        schema = body["schema"]
        entities = [{"id": ent, "components": {name: dict(zip(schema[name], values, strict=True))
                                               for name, values in comps}}
                    for ent, comps in body["entities"]]
        return {"ruleset": body["ruleset"], "seed": body["seed"], "tick": body["tick"],
                "outcome": body.get("outcome"), "entities": entities}
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"{path}: inconsistent content ({exc})") from None


def describe(game: Game) -> list[str]:
    """The pieces on the board in a few words: each kind where it stands, with its damage.

    Generic on purpose (any ruleset): pieces are grouped by `Kind` and `Zone`; pieces with a
    `Position` are listed square by square, with `*` after one that is hurt."""
    from ecs_zombie.components import Health, Kind, Position, Wounds, Zone

    groups: dict[tuple[str, str], list[str]] = {}
    for ent, kind in game.world.query1(Kind):
        zone, pos = game.world.try_get(ent, Zone), game.world.try_get(ent, Position)
        hurt, hp = game.world.try_get(ent, Wounds), game.world.try_get(ent, Health)
        damaged = (hurt is not None and hurt.taken > 0) or (hp is not None and hp.current < hp.maximum)
        where = f"{zone.name} (board {zone.board})" if zone is not None and zone.name else ""
        label = f"({pos.x},{pos.y})" if pos is not None else ""
        groups.setdefault((kind.name, where), []).append(label + ("*" if damaged else ""))
    lines = []
    for (name, where), marks in sorted(groups.items()):
        spots = " ".join(m for m in marks if m)
        lines.append(f"{name}{' in ' + where if where else ''}: {len(marks)}{' ' + spots if spots else ''}")
    return lines


def validate(paths: list[str]) -> list[str]:
    """Check rulesets, scenarios, prefab files and tables; returns what was checked."""
    rulesets = sorted(RULESETS_DIR.glob("*.yaml"))
    if not paths:
        paths = [str(p) for p in rulesets] + [str(p) for p in sorted((PREFABS_DIR / "scenarios").glob("**/*.yaml"))]
    tables: dict[Path, str] = {}
    prefab_files: set[Path] = set()
    for rp in rulesets:
        doc = load_yaml(rp)
        if isinstance(doc, dict):
            for name, rel in (doc.get("tables") or {}).items():
                if isinstance(rel, str):
                    tables[(PREFABS_DIR / rel).resolve()] = name
            for rel in doc.get("prefabs") or []:
                if isinstance(rel, str):
                    prefab_files.add((PREFABS_DIR / rel).resolve())
    done = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise DataError("no such file", raw)
        doc = load_yaml(p)
        name = display_path(p)
        if isinstance(doc, YMap) and "phases" in doc:
            load_ruleset(str(p))
            done.append(f"{name}: ruleset ok")
        elif isinstance(doc, YMap) and "ruleset" in doc:
            load_scenario(str(p))
            done.append(f"{name}: scenario ok")
        elif p.resolve() in tables:
            tname = tables[p.resolve()]
            if tname not in TABLES:
                load_ruleset(str(next(r for r in rulesets if tname in str(load_yaml(r).get("tables", {})))))
            TABLES[tname](doc)
            done.append(f"{name}: table {tname} ok")
        elif p.resolve() in prefab_files or isinstance(doc, YMap):
            for rp in rulesets:  # prefab files may name components that rulesets' packages register
                load_ruleset(str(rp))
            load_prefabs(p, {})
            done.append(f"{name}: prefabs ok")
        else:
            raise DataError("not a ruleset, scenario, prefab file or known table", name)
    return done
