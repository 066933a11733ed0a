"""Scenarios: a ruleset, its parameters and the entities placed from prefabs with overrides.

    ruleset: shambling
    players: 1
    params: {front_line_cap: 6}
    entities:
      - {prefab: hero, per_player: true, set: {Owner: {player: $player}}}
      - {prefab: survivor, count: 9, per_player: true, set: {Owner: {player: $player}}}
    decks:
      - {name: shambling, table: shambling.deck}

`$player` anywhere in `set` is replaced by the player's seat index for `per_player` entries.
An optional `prefabs: [file, ...]` adds prefab files of the scenario's own (looked for beside the
scenario first, then under `prefabs/`; they may `extends:` the ruleset's prefabs), e.g. a created
character saved by `ecs-zombie character create --save`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ecs_zombie._layout import PREFABS_DIR
from ecs_zombie.data import YList, YMap, display_path, fail, load_yaml, need, plain
from ecs_zombie.errors import DataError
from ecs_zombie.prefabs import Prefab, check_component, load_prefabs
from ecs_zombie.ruleset import Ruleset, load_ruleset, ruleset_path


@dataclass(slots=True)
class Scenario:
    name: str
    ruleset: Ruleset
    players: int
    params: dict[str, Any]
    entities: list[dict[str, Any]]
    decks: list[dict[str, str]]
    data: dict[str, Any] = field(default_factory=dict)
    table_overrides: dict[str, str] = field(default_factory=dict)
    prefabs: dict[str, Prefab] = field(default_factory=dict)
    placed: dict[tuple[int, int | None], Prefab] = field(default_factory=dict, repr=False, compare=False)


def scenario_ref(path: Path) -> str:
    """How a save names a scenario or table file: relative to prefabs/ when it lives there, else absolute."""
    try:
        return str(path.resolve().relative_to(PREFABS_DIR.resolve()))
    except ValueError:
        return str(path.resolve())


def resolve(target: str) -> Path:
    """A ruleset name or a scenario path -> the scenario file."""
    p = Path(target)
    if p.suffix in (".yaml", ".yml"):
        # Also found relative to the shipped prefabs/ folder, written with or without "prefabs/".
        for candidate in (PREFABS_DIR / p, PREFABS_DIR / Path(*p.parts[1:]) if p.parts[:1] == ("prefabs",) else p):
            if not p.is_file() and candidate.is_file():
                p = candidate
        if not p.is_file():
            raise DataError("no such file", str(p))
        doc = load_yaml(p)
        if isinstance(doc, dict) and "phases" in doc:  # a ruleset file given by path
            rs = load_ruleset(str(p))
            if rs.default_scenario is None:
                raise DataError(f"ruleset {rs.id!r} has no default_scenario", display_path(p))
            return rs.default_scenario
        return p
    rs = load_ruleset(target)
    if rs.default_scenario is None:
        raise DataError(f"ruleset {rs.id!r} has no default_scenario", display_path(ruleset_path(target)))
    return rs.default_scenario


_CACHE: dict[tuple[str, int, int], Scenario] = {}


def load_scenario(target: str) -> Scenario:
    """Load and validate a scenario; cached while its file is unchanged (a scenario is read-only)."""
    path = resolve(target)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _CACHE:
        _CACHE[key] = _load(path)
    return _CACHE[key]


def _load(path: Path) -> Scenario:
    doc = load_yaml(path)
    if not isinstance(doc, YMap):
        raise DataError("a scenario must be a mapping", display_path(path))
    rname = need(doc, "ruleset", str, "scenario")
    overrides = {}
    tables_doc = need(doc, "tables", dict, "scenario", default=YMap())
    for tname, rel in tables_doc.items():
        if not isinstance(rel, str):
            raise fail("expected a file name", tables_doc, tname, f"tables.{tname}")
        # A table file is looked for beside the scenario first, then under prefabs/.
        beside = path.parent / rel
        overrides[tname] = scenario_ref(beside) if beside.is_file() else rel
    try:
        ruleset = load_ruleset(rname, overrides)
    except DataError as exc:
        if "unknown ruleset" in str(exc):
            raise fail(str(exc), doc, "ruleset", "ruleset") from None
        raise
    params_doc = need(doc, "params", dict, "scenario", default=YMap())
    file, line = getattr(params_doc, "file", path.name), getattr(params_doc, "line", 0)
    ruleset.params_with(plain(params_doc), f"{file}:{line}: params")  # validate now
    extra: dict[str, Prefab] = {}
    prefab_files = need(doc, "prefabs", list, "scenario", default=YList())
    for i, rel in enumerate(prefab_files):
        if not isinstance(rel, str):
            raise fail("expected a file name", prefab_files, i, f"prefabs[{i}]")
        beside = path.parent / rel
        loaded, _raw = load_prefabs(beside if beside.is_file() else PREFABS_DIR / rel, {**ruleset.prefabs, **extra})
        extra.update(loaded)
    known = {**ruleset.prefabs, **extra}
    entities = need(doc, "entities", list, "scenario", default=YList())
    for i, entry in enumerate(entities):
        f = f"entities[{i}]"
        prefab = need(entry, "prefab", str, f)
        if prefab not in known:
            raise fail(f"unknown prefab {prefab!r} (known: {', '.join(sorted(known))})",
                       entry, "prefab", f + ".prefab")
        need(entry, "count", int, f, default=1)
        need(entry, "per_player", bool, f, default=False)
        overrides_doc = need(entry, "set", dict, f, default=YMap())
        for cname in overrides_doc:
            check_component(cname, overrides_doc[cname], overrides_doc, f"{f}.set.{cname}")
        # build once to validate field types now rather than at spawn time
        known[prefab].build(_substitute(plain(overrides_doc), 0), entry, f)
    decks = need(doc, "decks", list, "scenario", default=YList())
    for i, entry in enumerate(decks):
        need(entry, "name", str, f"decks[{i}]")
        tname = need(entry, "table", str, f"decks[{i}]")
        if tname not in ruleset.tables:
            raise fail(f"unknown table {tname!r}", entry, "table", f"decks[{i}].table")
    players = need(doc, "players", int, "scenario", default=1)
    return Scenario(
        name=scenario_ref(path), ruleset=ruleset, players=players, params=plain(params_doc),
        entities=plain(entities), decks=plain(decks), data=plain(doc), table_overrides=overrides, prefabs=extra,
    )


def _substitute(value: Any, player: int) -> Any:
    if value == "$player":
        return player
    if isinstance(value, dict):
        return {k: _substitute(v, player) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, player) for v in value]
    return value


def spawn_entities(scenario: Scenario, world: Any, players: int) -> None:
    """Create the scenario's entities in a fixed order: entries in file order, players by seat."""
    from ecs_zombie.components import Card, Deck

    for i, entry in enumerate(scenario.entities):
        seats = range(players) if entry.get("per_player") else [None]
        for seat in seats:
            prefab = _placed(scenario, i, seat)
            for _ in range(entry.get("count", 1)):
                world.create(*prefab.make())
    for deck in scenario.decks:
        cards = scenario.ruleset.tables[deck["table"]]
        ids = [world.create(Card(c["face"], c["value"], c["suit"], deck["name"])) for c in cards]
        world.create(Deck(deck["name"], list(reversed(ids)), []))


def _placed(scenario: Scenario, entry: int, seat: int | None) -> Prefab:
    """Entry `entry`'s prefab with its `set:` overrides for `seat` merged in, derived once per scenario."""
    key = (entry, seat)
    found = scenario.placed.get(key)
    if found is None:
        spec = scenario.entities[entry]
        base = scenario.prefabs.get(spec["prefab"]) or scenario.ruleset.prefabs[spec["prefab"]]
        found = scenario.placed[key] = base.derive(_substitute(spec.get("set", {}), seat if seat is not None else 0))
    return found
