"""Scenarios: a ruleset, its parameters and the entities placed from prefabs with overrides.

    ruleset: shambling
    players: 1              # the default; `--players` may ask for 1..max_players (default 8)
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
from ecs_zombie.data import YList, YMap, check_keys, display_path, fail, load_yaml, need, need_int, plain
from ecs_zombie.errors import DataError, DataErrors
from ecs_zombie.filestamps import Stamp, recording, unchanged
from ecs_zombie.limits import MAX_COUNT, MAX_PLAYERS, MAX_SCENARIO_ENTITIES
from ecs_zombie.prefabs import Prefab, check_component, load_prefabs
from ecs_zombie.ruleset import Ruleset, load_ruleset, ref_of, resolve_ref, ruleset_path


@dataclass(slots=True)
class Scenario:
    """A loaded, validated scenario (`load_scenario`): the ruleset it plays under, its seats, the
    entities it places, its decks and its parameter and table overrides."""

    name: str
    ruleset: Ruleset
    players: int
    params: dict[str, Any]
    entities: list[dict[str, Any]]
    decks: list[dict[str, str]]
    data: dict[str, Any] = field(default_factory=dict)
    table_overrides: dict[str, str] = field(default_factory=dict)
    prefabs: dict[str, Prefab] = field(default_factory=dict)
    max_players: int = MAX_PLAYERS
    placed: dict[tuple[int, int | None], Prefab] = field(default_factory=dict, repr=False, compare=False)


def scenario_ref(path: Path, ruleset: Ruleset | None = None) -> str:
    """How a save names a scenario: relative to its ruleset's folder or the shipped prefabs/ when it
    lies inside one, else absolute."""
    return ref_of(path, ruleset.folder if ruleset is not None else PREFABS_DIR)


def resolve(target: str) -> tuple[Path, Ruleset | None]:
    """A ruleset id, a ruleset file or a scenario file -> the scenario file to load, and the ruleset
    to play it with when the target named a ruleset (its default scenario then plays under it, even
    if that scenario names another ruleset: `run my-hybrid.yaml` plays my hybrid)."""
    from ecs_zombie.arguments import check_text

    p = Path(check_text(target, "the ruleset or scenario"))
    if p.suffix in (".yaml", ".yml"):
        if not p.is_file():
            # Also found relative to the shipped prefabs/ folder, written with or without "prefabs/".
            for candidate in (PREFABS_DIR / p, PREFABS_DIR / Path(*p.parts[1:]) if p.parts[:1] == ("prefabs",) else p):
                if candidate.is_file():
                    p = candidate
                    break
        if not p.is_file():
            raise DataError("no such file", str(p))
        doc = load_yaml(p)
        if not (isinstance(doc, dict) and "phases" in doc):
            return p, None
    rs = load_ruleset(str(p) if p.suffix in (".yaml", ".yml") else target)
    if rs.default_scenario is None:
        raise DataError(f"ruleset {rs.id!r} has no default_scenario", display_path(rs.path))
    return rs.default_scenario, rs


# (scenario path, forced ruleset path) -> (the stamps of every file the load read, the scenario)
_CACHE: dict[tuple[str, str], tuple[frozenset[Stamp], Scenario]] = {}


def load_scenario(target: str, ruleset: Ruleset | None = None) -> Scenario:
    """Load and validate a scenario, played under `ruleset` if given (else the one it names);
    cached while every file it read is unchanged: its own, its tables and prefabs, and its
    ruleset's (a scenario is read-only)."""
    path, named = resolve(target)
    ruleset = ruleset or named
    key = (str(path.resolve()), str(ruleset.path.resolve()) if ruleset else "")
    cached = _CACHE.get(key)
    if cached is not None and unchanged(cached[0]):
        return cached[1]
    with recording() as stamps:
        scenario = _load(path, ruleset)
    _CACHE[key] = (frozenset(stamps), scenario)
    return scenario


_KEYS = ("ruleset", "name", "description", "players", "max_players", "params", "tables", "prefabs", "entities",
         "decks")


def _load(path: Path, forced: Ruleset | None) -> Scenario:
    doc = load_yaml(path)
    if not isinstance(doc, YMap):
        raise DataError("a scenario must be a mapping", display_path(path))
    check_keys(doc, _KEYS, "")
    rname = need(doc, "ruleset", str, "scenario")
    if forced is not None:
        rpath = forced.path
    else:
        # A ruleset named by path is looked for beside the scenario first, then as an id.
        rref = Path(rname)
        rpath = path.parent / rref if rref.suffix in (".yaml", ".yml") and not rref.is_absolute() else rref
        if rref.suffix in (".yaml", ".yml") and not rpath.is_file():
            raise fail(f"no ruleset file {rname!r} beside the scenario", doc, "ruleset", "ruleset")
        if rref.suffix not in (".yaml", ".yml"):
            try:
                rpath = ruleset_path(rname)
            except DataError as exc:
                raise fail(str(exc), doc, "ruleset", "ruleset") from None
    folder = rpath.parent
    overrides = {}
    tables_doc = need(doc, "tables", dict, "scenario", default=YMap())
    for tname, rel in tables_doc.items():
        if not isinstance(rel, str):
            raise fail("expected a file name", tables_doc, tname, f"tables.{tname}")
        # A table file is looked for beside the scenario first, then beside the ruleset, then under prefabs/.
        found = resolve_ref(rel, path.parent)
        overrides[tname] = ref_of(found if found.is_file() else resolve_ref(rel, folder), folder)
    ruleset = load_ruleset(str(rpath), overrides)
    params_doc = need(doc, "params", dict, "scenario", default=YMap())
    file, line = getattr(params_doc, "file", path.name), getattr(params_doc, "line", 0)
    ruleset.params_with(plain(params_doc), f"{file}:{line}: params")  # validate now
    extra: dict[str, Prefab] = {}
    prefab_files = need(doc, "prefabs", list, "scenario", default=YList())
    for i, rel in enumerate(prefab_files):
        if not isinstance(rel, str):
            raise fail("expected a file name", prefab_files, i, f"prefabs[{i}]")
        found = resolve_ref(rel, path.parent)
        loaded, _raw = load_prefabs(found if found.is_file() else resolve_ref(rel, folder),
                                    {**ruleset.prefabs, **extra})
        extra.update(loaded)
    known = {**ruleset.prefabs, **extra}
    entities = need(doc, "entities", list, "scenario", default=YList())
    placed = 0
    for i, entry in enumerate(entities):
        f = f"entities[{i}]"
        prefab = need(entry, "prefab", str, f)
        check_keys(entry, ("prefab", "count", "per_player", "set"), f)
        if prefab not in known:
            raise fail(f"unknown prefab {prefab!r} (known: {', '.join(sorted(known))})",
                       entry, "prefab", f + ".prefab")
        count = need_int(entry, "count", f, 0, MAX_COUNT, default=1)
        # Entities placed per seat count once for each seat `--players` may ask for.
        placed += count * (MAX_PLAYERS if need(entry, "per_player", bool, f, default=False) else 1)
        if placed > MAX_SCENARIO_ENTITIES:
            raise fail(f"the scenario places more than {MAX_SCENARIO_ENTITIES} entities (counting {MAX_PLAYERS} "
                       f"players for per_player entries)", entry, "count", f + ".count")
        overrides_doc = need(entry, "set", dict, f, default=YMap())
        for cname in overrides_doc:
            check_component(cname, overrides_doc[cname], overrides_doc, f"{f}.set.{cname}")
        # build once to validate field types now rather than at spawn time
        known[prefab].build(_substitute(plain(overrides_doc), 0), entry, f)
    decks = need(doc, "decks", list, "scenario", default=YList())
    for i, entry in enumerate(decks):
        need(entry, "name", str, f"decks[{i}]")
        check_keys(entry, ("name", "table"), f"decks[{i}]")
        tname = need(entry, "table", str, f"decks[{i}]")
        if tname not in ruleset.tables:
            raise fail(f"unknown table {tname!r}", entry, "table", f"decks[{i}].table")
    max_players = need_int(doc, "max_players", "scenario", 1, MAX_PLAYERS, default=MAX_PLAYERS)
    players = need_int(doc, "players", "scenario", 1, max_players, default=1)
    check_provided(ruleset, [(known[e["prefab"]], e) for e in entities], bool(decks), display_path(path))
    return Scenario(
        name=scenario_ref(path, ruleset), ruleset=ruleset, players=players, params=plain(params_doc),
        entities=plain(entities), decks=plain(decks), data=plain(doc), table_overrides=overrides, prefabs=extra,
        max_players=max_players,
    )


def check_provided(ruleset: Ruleset, placed: list[tuple[Prefab, Any]], decks: bool, where: str) -> None:
    """Every component a scheduled system reads is on an entity the scenario places (its prefab or
    its `set:`), on a deck's cards, created by a scheduled system, or `attached:` to figures
    made from the ruleset's prefabs: else the game would fail at the first read. Every offender is
    reported, each naming the entry that schedules it."""
    provided = {"Card", "Deck"} if decks else set()
    for prefab, entry in placed:
        provided.update(prefab.components)
        provided.update((entry.get("set") or {}) if isinstance(entry, dict) else {})
    for step in ruleset.scheduled():
        provided.update(step.spec.creates)
    # What a ruleset grafts onto another game's figures (`attached:`) comes with the figures that
    # game's rules make from its prefabs, when some prefab of the ruleset carries it.
    carried = {c for prefab in ruleset.prefabs.values() for c in prefab.components}
    provided.update(c for c in ruleset.attached if c in carried)
    errors = []
    for step in ruleset.scheduled():
        missing = sorted(set(step.spec.reads) - provided)
        if missing:
            errors.append(DataError(f"system {step.spec.name!r} ({step.where}) reads {', '.join(missing)}, but the "
                                    f"scenario places no entity with {'it' if len(missing) == 1 else 'them'} and "
                                    f"no system creates {'it' if len(missing) == 1 else 'them'}", where))
    if errors:
        raise DataErrors(errors)


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
